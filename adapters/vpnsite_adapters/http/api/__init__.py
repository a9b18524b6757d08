"""The JSON API: the website's calls, the archive and profile downloads, the devices, the
operator's metrics, the two polled answers, and the OpenAPI document of them all."""
