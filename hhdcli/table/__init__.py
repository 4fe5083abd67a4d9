"""The Hell table: one laptop runs a Hell library session; players act on it from their phones."""
