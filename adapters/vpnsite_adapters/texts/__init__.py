"""What the service writes to people: every text by language (the catalogues), numbers, dates and
waits as each language writes them, the languages themselves and the public links."""
