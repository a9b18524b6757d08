"""``vpnsite serve``: the website, the API and the background jobs in one process; with
``VPNSITE_NODE_ADDRESS``, the node API in a second one it starts and watches (``serve-node``,
see http/node_process)."""

from __future__ import annotations

import argparse
import logging
import sys

import attrs

from vpnsite_adapters.operator_files.identity import DEMO_OPERATOR, SETTING_NAMES
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
    # Started by `serve` only, with the listener it bound: not a command for operators.
    node = commands.add_parser(
        "serve-node", help="the node API's process, which serve starts (not run by hand)"
    )
    node.add_argument("--listen-fd", type=int, required=True)
    node.add_argument("--metrics-fd", type=int, required=True)
    node.set_defaults(handler=run_serve_node, store="none")


def run_serve(settings: Settings, _args: argparse.Namespace) -> int:
    from vpnsite_adapters.bootstrap import build_hub
    from vpnsite_adapters.http.app import create_app, node_gate
    from vpnsite_adapters.http.node.process import NodeProcess, bind_listener, this_command
    from vpnsite_adapters.http.waitress_server import create_graceful_server
    from vpnsite_adapters.metrics.listener import MetricsListener
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
    if settings.operator is None:
        if not settings.demo:
            print(
                f"vpnsite: set {', '.join(SETTING_NAMES)}: the footer, About page, terms and privacy"
                " policy name the company that runs the service"
                " (`vpnsite serve --demo` uses a fictitious one)",
                file=sys.stderr,
            )
            return 2
        settings = attrs.evolve(settings, operator=DEMO_OPERATOR)
    initialise(settings.data_dir)
    hub = build_hub(settings)
    metrics = None
    if settings.metrics_address:
        host, port = settings.metrics_address
        try:
            metrics = MetricsListener.start(hub.metrics, host, port)
        except OSError as error:
            hub.close()
            print(
                f"vpnsite: cannot serve metrics on {host}:{port}: {error.strerror or error}", file=sys.stderr
            )
            return 2
        log.info("metrics on http://%s:%d/metrics", host, port)
    hub.jobs.start()
    gate = node_gate(hub.services)
    node_process = None
    try:
        if settings.node_address is None:
            server = create_graceful_server(create_app(hub.services, "all", gate), settings, gate)
        else:
            node_host, node_port = settings.node_address
            node_listener = bind_listener(node_host, node_port)
            command = [*this_command(), "--data-dir", str(settings.data_dir), "serve-node"]
            node_process = NodeProcess(node_listener, command, settings.shutdown_timeout + 5)
            server = create_graceful_server(create_app(hub.services, "public"), settings)
    except OSError as error:
        if node_process is not None:
            node_process.stop()
        hub.close()
        print(f"vpnsite: cannot listen: {error.strerror or error}", file=sys.stderr)
        return 2
    log.info(
        "vpnsite on http://%s:%d (data in %s, database %s)%s",
        settings.host,
        settings.port,
        settings.data_dir,
        settings.database_url.split("://")[0],
        " — DEMO: the VPN servers on the status page are simulated" if settings.demo else "",
    )
    if node_process is None:
        gate.start()
    else:
        node_process.start()
        hub.metrics.count_elsewhere(node_process.scrape)
        node_host, node_port = settings.node_address  # type: ignore[misc]
        log.info(
            "VPN servers call on http://%s:%d, served by a process of its own (pid %s)",
            node_host,
            node_port,
            node_process.pid,
        )
        listening = "127.0.0.1" if node_host in ("0.0.0.0", "::", "") else node_host
        local = f"http://{listening}:{node_port}"  # where the demo's servers report
    if settings.demo:
        hub.jobs.start_demo(local)

    def stop_background_work() -> None:
        hub.jobs.signal_stop()
        gate.signal_stop()
        if node_process is not None:
            node_process.signal_stop()

    try:
        server.serve(on_stop=stop_background_work)
    finally:
        if node_process is not None:
            node_process.stop()
        if metrics is not None:
            metrics.close()
        hub.close(settings.shutdown_timeout)
    log.info("vpnsite stopped")
    return 0


def run_serve_node(settings: Settings, args: argparse.Namespace) -> int:
    """The node API alone, on the listener `serve` bound, with its own database connections and
    threads (VPNSITE_NODE_THREADS); its counters go to `serve` over ``--metrics-fd``."""
    import socket

    from vpnsite_adapters.bootstrap import build_hub
    from vpnsite_adapters.http.app import create_app, node_gate
    from vpnsite_adapters.http.node.process import answer_scrapes
    from vpnsite_adapters.http.waitress_server import create_node_server

    listener = socket.socket(fileno=args.listen_fd)
    hub = build_hub(settings, migrate=False)
    answer_scrapes(socket.socket(fileno=args.metrics_fd), lambda: hub.metrics.scrape()[0])
    gate = node_gate(hub.services)
    server = create_node_server(create_app(hub.services, "node", gate), settings, listener, gate)
    gate.start()
    try:
        server.serve(on_stop=gate.signal_stop)
    finally:
        hub.close(settings.shutdown_timeout)
    return 0
