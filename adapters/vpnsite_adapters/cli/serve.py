"""``vpnsite serve``: the website, the API and the background jobs in one process."""

from __future__ import annotations

import argparse
import logging
import sys

import attrs

from vpnsite_adapters.settings import Settings

log = logging.getLogger("vpnsite")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser("serve", help="serve the website and the API")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default 8000)")
    serve.add_argument("--threads", type=int, help="worker threads (default 8)")
    serve.add_argument("--data-dir", dest="command_data_dir", help=argparse.SUPPRESS)
    serve.add_argument(
        "--demo",
        action="store_true",
        default=None,
        help="run simulated VPN servers so the status page is live",
    )
    serve.set_defaults(handler=run_serve, store="none")


def run_serve(settings: Settings, _args: argparse.Namespace) -> int:
    import waitress

    from vpnsite_adapters.bootstrap import build_hub
    from vpnsite_adapters.http.app import create_app
    from vpnsite_adapters.http.node_api import HEARTBEAT_BODY_BYTES as MAX_REQUEST_BYTES
    from vpnsite_adapters.vpn.keystore import initialise

    # Where this process itself is reached: the demo's servers report here.
    listening = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host
    local = f"http://{listening}:{settings.port}"
    if settings.public_url is None:
        if not settings.demo:
            print(
                "vpnsite: set VPNSITE_PUBLIC_URL to the address visitors use (e.g. https://vpn.example.com):"
                " links in e-mails and answers are built from it, never from a request's Host header"
                " (`vpnsite serve --demo` uses its own address)",
                file=sys.stderr,
            )
            return 2
        settings = attrs.evolve(settings, public_url=local)
    initialise(settings.data_dir)
    hub = build_hub(settings)
    hub.jobs.start()
    server = waitress.create_server(
        create_app(hub.services),
        host=settings.host,
        port=settings.port,
        threads=settings.threads,
        ident="vpnsite",
        # The app decides whose X-Forwarded-* to believe (VPNSITE_TRUSTED_PROXIES takes networks).
        clear_untrusted_proxy_headers=False,
        # Refused while reading, not after: nothing the API accepts is larger.
        max_request_body_size=MAX_REQUEST_BYTES,
        connection_limit=settings.connection_limit,
        channel_timeout=settings.channel_timeout,
        cleanup_interval=max(1, min(10, settings.channel_timeout // 2)),
        # select() cannot watch more than 1,024 sockets.
        asyncore_use_poll=True,
    )
    log.info(
        "vpnsite on http://%s:%d (data in %s, database %s)%s",
        settings.host,
        settings.port,
        settings.data_dir,
        settings.database_url.split("://")[0],
        " — DEMO: the VPN servers on the status page are simulated" if settings.demo else "",
    )
    if settings.demo:
        hub.jobs.start_demo(local)
    try:
        server.run()
    finally:
        hub.close()
    return 0
