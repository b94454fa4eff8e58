"""The seat token's cookie: set by the HTTP views, read by the socket's handshake and the
record views. Its own module, so an HTTP view never imports the socket to name it."""

SEAT_COOKIE = "seat_token"
