"""VPN provisioning: the OpenVPN PKI, tls-crypt-v2 keys, profiles and the hooks servers run."""
