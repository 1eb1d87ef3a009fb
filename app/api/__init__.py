"""HTTP and WebSocket endpoints: parse, authenticate, hand commands to table actors."""
