"""The server-side page engine: the prerendered pages with their slots filled per request, and what the site
answers without JavaScript (the forms, the erasure link's pages, security.txt)."""
