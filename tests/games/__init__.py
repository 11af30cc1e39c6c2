"""The games' engines, records, robots and rules pages."""
