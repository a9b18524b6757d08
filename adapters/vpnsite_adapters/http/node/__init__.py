"""The node listener: the calls a VPN server makes, the gate every one passes (a server's token, its
address, its rate), and the process of its own it can run in."""
