class HttpError(Exception):
    """Caught by io.py around Drive calls, which the tests never make."""
