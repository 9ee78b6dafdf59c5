"""The engine: from a game object to exact or float values (no user-facing names here)."""
