"""Stand-in for oauth2client, as googleapiclient's here (see ../README.md)."""
