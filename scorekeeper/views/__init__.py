"""Blueprints, one module each."""
