package io.kraft.server;

import io.kraft.metadata.controller.BrokerProbe;
import io.kraft.metadata.image.Endpoint;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's {@link BrokerProbe} over TCP: connects to each advertised endpoint of a broker that may be gone, on
 * a daemon thread of its own. Only a refused connection counts as gone (the kernel of a killed process answers with a
 * reset); a timeout, an unknown host or an accepted connection leave the broker to its session.
 */
final class TcpBrokerProbe implements BrokerProbe {
    private static final Logger LOG = LoggerFactory.getLogger(TcpBrokerProbe.class);

    private final int connectTimeoutMs;
    /** One thread while probes run (they are rare: a takeover, a closed heartbeat stream), none when idle. */
    private final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 5, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "kraft-broker-probe");
                thread.setDaemon(true);
                return thread;
            });

    TcpBrokerProbe(int connectTimeoutMs) {
        this.connectTimeoutMs = connectTimeoutMs;
        executor.allowCoreThreadTimeOut(true);
    }

    @Override
    public void probe(int brokerId, List<Endpoint> endpoints, Runnable onRefused) {
        if (endpoints.isEmpty()) {
            return;
        }
        executor.execute(() -> {
            for (Endpoint endpoint : endpoints) {
                if (!refuses(endpoint)) {
                    return;
                }
            }
            LOG.info("Every endpoint of broker {} refused a connection: {}", brokerId, endpoints);
            onRefused.run();
        });
    }

    private boolean refuses(Endpoint endpoint) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), connectTimeoutMs);
            return false;
        } catch (ConnectException e) {
            return e.getMessage() != null && e.getMessage().contains("refused");
        } catch (IOException | IllegalArgumentException | SecurityException e) {
            return false;
        }
    }
}
