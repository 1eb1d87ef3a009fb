"""Live tables: one actor task per table, the registry that finds them, the wire protocol."""
