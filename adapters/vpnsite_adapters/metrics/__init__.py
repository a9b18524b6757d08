"""The hub's Prometheus metrics: counters the adapters update, gauges read when scraped."""
