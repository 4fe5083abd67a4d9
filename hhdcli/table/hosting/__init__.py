"""Hosting: the server (gevent), one app builder with its guards, limits per address, the community's tables
with their front page and expiry, and the launchers of `hhd table` and `hhd serve`."""
