"""Repository search (``GET /repos/search``): Gitea's filters, orders and visibility."""
