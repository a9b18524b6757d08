"""The wire contract: every body and answer of the hub's HTTP API, declared once as attrs classes
with their limits. The hub structures requests and unstructures answers with them, the agent on
each VPN server does the same on its side of the node calls, and the OpenAPI document (and from it
the website's TypeScript types) is generated from them. It imports the core, attrs, cattrs and the
standard library, nothing else."""
