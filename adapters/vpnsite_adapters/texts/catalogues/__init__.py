"""One catalogue of the server's texts per language, each module named for its language's code in
languages.json and holding its ``CATALOGUE`` (catalogue.py)."""
