"""Online play: the FastAPI server, its protocol and tables."""
