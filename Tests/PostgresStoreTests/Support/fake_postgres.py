"""A fake PostgreSQL server on 127.0.0.1 that tests a client's TLS and password handling.

Usage: fake_postgres.py decline | fake_postgres.py tls CERT KEY

Prints its port, then for each connection one line: "password received" when the client sent a password
message, else "no password", after the client hung up. `decline` answers the SSLRequest with N and then asks for a
cleartext password; `tls` answers S and completes a TLS handshake with CERT, then asks for a cleartext password.
"""

import socket
import ssl
import struct
import sys


def receive(conn, count):
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def message(conn):
    length, code = struct.unpack("!ii", receive(conn, 8))
    return code, receive(conn, length - 8)


def serve(conn, mode, context):
    code, _ = message(conn)
    if code == 80877103:  # SSLRequest
        if mode == "decline":
            conn.sendall(b"N")
        else:
            conn.sendall(b"S")
            conn = context.wrap_socket(conn, server_side=True)
        code, _ = message(conn)
    conn.sendall(b"R" + struct.pack("!ii", 8, 3))  # AuthenticationCleartextPassword
    kind = receive(conn, 1)
    return kind == b"p"


def main():
    mode = sys.argv[1]
    context = None
    if mode == "tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    print(server.getsockname()[1], flush=True)
    while True:
        conn, _ = server.accept()
        conn.settimeout(10)
        got = False
        try:
            got = serve(conn, mode, context)
        except (EOFError, OSError, ssl.SSLError, socket.timeout):
            pass
        finally:
            conn.close()
        print("password received" if got else "no password", flush=True)


main()
