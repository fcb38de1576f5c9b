package io.kraft.broker;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy between Kafka clients and a broker that loses one response: the first response to a request of
 * the chosen API is not delivered and the connection is closed, as a network failure after the broker acted
 * would. Frames are forwarded whole; requests are matched to responses by correlation id.
 */
public final class ResponseDroppingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final short droppedApiKey;
    private final AtomicBoolean dropped = new AtomicBoolean();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile int targetPort = -1;

    public ResponseDroppingProxy(short droppedApiKey) throws IOException {
        this.droppedApiKey = droppedApiKey;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "proxy-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public void forwardTo(int port) {
        this.targetPort = port;
    }

    public boolean droppedOne() {
        return dropped.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket broker = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(broker);
                Map<Integer, Short> apiByCorrelationId = new ConcurrentHashMap<>();
                start(() -> pump(client, broker, apiByCorrelationId, true));
                start(() -> pump(broker, client, apiByCorrelationId, false));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void start(Runnable pump) {
        Thread thread = new Thread(pump, "proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private void pump(Socket from, Socket to, Map<Integer, Short> apiByCorrelationId, boolean requests) {
        try (DataInputStream in = new DataInputStream(from.getInputStream());
             DataOutputStream out = new DataOutputStream(to.getOutputStream())) {
            while (true) {
                int size = in.readInt();
                byte[] frame = new byte[size];
                in.readFully(frame);
                ByteBuffer view = ByteBuffer.wrap(frame);
                if (requests) {
                    apiByCorrelationId.put(view.getInt(4), view.getShort(0));
                } else {
                    Short api = apiByCorrelationId.remove(view.getInt(0));
                    if (api != null && api == droppedApiKey && dropped.compareAndSet(false, true)) {
                        from.close();
                        to.close();
                        return;
                    }
                }
                out.writeInt(size);
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
