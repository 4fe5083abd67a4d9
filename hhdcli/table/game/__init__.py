"""The game: its rules (pure), the store that keeps a table, the views each player sees, and the session
that applies an action through them. Imports nothing of the web or of hosting."""
