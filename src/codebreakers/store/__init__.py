"""Codebreakers."""
