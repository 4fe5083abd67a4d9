"""The web: the table's routes, the page (static modules, its template and bootstrap), faces and the page's
language. Uses the game; imports nothing of hosting."""
