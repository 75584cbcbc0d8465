"""The server's routes, one router per resource."""
