"""The server's texts in Russian (catalogue.py)."""

from vpnsite_adapters.catalogue import Catalogue

CATALOGUE = Catalogue(
    archive_title="Ваши профили vpnsite",
    archive_steps=(
        "Установите OpenVPN Connect (Windows, macOS, Android, iOS) или другое приложение OpenVPN.",
        "Импортируйте один из профилей: по одному на сервер, UDP (быстрее) или TCP (работает и в сетях с ограничениями).",
        "На телефоне быстрее через страницу лицензии: нажмите «Открыть в OpenVPN Connect» рядом с сервером — приложение импортирует профиль. Если страница открыта на компьютере, отсканируйте QR-код сервера камерой телефона. Папка wireguard/ (если есть) — для компьютеров.",
        "Подключитесь: имя пользователя — ваш e-mail, пароль — код активации.",
        "До 10 устройств одновременно, каждое на своём сервере: если подключить второе устройство к тому же серверу, первое отключится.",
        "В Linux команда openvpn не применяет DNS-серверы, которые присылает VPN-сервер, и DNS-запросы уходят мимо туннеля. Плагин OpenVPN для NetworkManager их применяет; в терминале установите пакет openvpn-systemd-resolved и подключайтесь так: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
        "В папке wireguard/ (если есть; для компьютеров, в экспериментальном режиме) лежат профили WireGuard: они направляют в туннель и IPv4, и IPv6, а сервер блокирует IPv6.",
    ),
)
