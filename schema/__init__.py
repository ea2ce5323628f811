"""Pydantic models, DuckDB DDL and the error tree. Imports nothing else of the project."""
