"""The JSON API and the website over HTTP: a Flask app factory served by waitress."""
