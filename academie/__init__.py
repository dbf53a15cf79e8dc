"""academie: historical card-game rules as cited, executable data."""
__version__ = "0.1.0"
