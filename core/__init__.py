"""The bottom layer every app may import: service errors and their codes, DRF pieces,
engine messages, request middleware, log filters, system checks."""
