"""The server's texts in Portuguese (Brazil) (catalogue.py)."""

from vpnsite_adapters.catalogue import Catalogue

CATALOGUE = Catalogue(
    archive_title="Seus perfis do vpnsite",
    archive_steps=(
        "Instale o OpenVPN Connect (Windows, macOS, Android, iOS) ou outro aplicativo OpenVPN.",
        "Importe um destes perfis: um por servidor, via UDP (mais rápido) ou TCP (passa por redes restritivas).",
        "No celular, é mais rápido pela página da licença: toque em “Abrir no OpenVPN Connect” ao lado de um servidor e o aplicativo importa o perfil. Se estiver no computador, escaneie o QR code do servidor com o celular. A pasta wireguard/ (quando houver) é para computadores.",
        "Conecte-se: seu e-mail é o usuário e seu código de ativação é a senha.",
        "Até 10 dispositivos ao mesmo tempo, cada um em um servidor diferente: conectar um segundo dispositivo ao mesmo servidor desconecta o primeiro.",
        "No Linux, o comando openvpn não usa os servidores DNS enviados pelo servidor VPN, e suas consultas DNS sairiam por fora do túnel. O plugin do OpenVPN para o NetworkManager os aplica; no terminal, instale o openvpn-systemd-resolved e conecte-se com: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
        "A pasta wireguard/ (quando houver; para computadores, experimental) traz perfis do WireGuard: eles mandam IPv4 e IPv6 pelo túnel, e o servidor bloqueia o IPv6.",
    ),
)
