package io.kraft.broker.group.share.state;

import io.kraft.broker.concurrent.ExecutorShutdown;
import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.network.BlockingWireClient;
import io.kraft.broker.network.InterBrokerSecurity;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ReadShareGroupStateResponse;
import io.kraft.broker.protocol.message.WriteShareGroupStateResponse;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls another broker's share coordinator with ReadShareGroupState and WriteShareGroupState over the inter-broker
 * listener (its TLS and SASL, as the replica fetchers connect), one connection per broker, on its own thread. A
 * network failure answers COORDINATOR_NOT_AVAILABLE, which the caller retries after finding the coordinator again.
 */
public final class RemoteShareState implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteShareState.class);
    private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

    private final IntFunction<Optional<InetSocketAddress>> endpoints;
    private final InterBrokerSecurity security;
    private final int timeoutMs;
    private final String clientId;
    private final ExecutorService thread;
    /** Open connections by broker id; used only on {@link #thread}. */
    private final Map<Integer, BlockingWireClient> clients = new HashMap<>();

    public RemoteShareState(int localBrokerId, IntFunction<Optional<InetSocketAddress>> endpoints,
                            InterBrokerSecurity security, int timeoutMs) {
        this.endpoints = endpoints;
        this.security = security;
        this.timeoutMs = timeoutMs;
        this.clientId = "broker-" + localBrokerId + "-share-state";
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kraft-share-state-client");
            t.setDaemon(true);
            return t;
        });
    }

    public CompletableFuture<ShareStatePersister.ReadResult> read(int brokerId, SharePartitionKey key, int leaderEpoch) {
        return CompletableFuture.supplyAsync(() -> {
            ReadShareGroupStateResponse response = call(brokerId, ShareStateWire.readRequest(key, leaderEpoch));
            return response == null ? new ShareStatePersister.ReadResult(Errors.COORDINATOR_NOT_AVAILABLE, null)
                    : ShareStateWire.readResult(response);
        }, thread);
    }

    public CompletableFuture<Errors> write(int brokerId, SharePartitionKey key, int leaderEpoch,
                                           SharePartition.Snapshot snapshot) {
        return CompletableFuture.supplyAsync(() -> {
            WriteShareGroupStateResponse response = call(brokerId,
                    ShareStateWire.writeRequest(key, leaderEpoch, snapshot));
            return response == null ? Errors.COORDINATOR_NOT_AVAILABLE : ShareStateWire.writeResult(response);
        }, thread);
    }

    /** The answer, or null when the broker could not be reached or answered nothing readable. */
    private <R extends ApiMessage> R call(int brokerId, ApiMessage request) {
        BlockingWireClient client = clients.get(brokerId);
        try {
            if (client == null || client.isClosed()) {
                InetSocketAddress address = endpoints.apply(brokerId).orElseThrow(() -> new IOException(
                        "broker " + brokerId + " has no registered endpoint"));
                client = BlockingWireClient.connect(address, security, timeoutMs, clientId, MAX_RESPONSE_BYTES);
                clients.put(brokerId, client);
            }
            return client.send(request, (short) 0);
        } catch (IOException e) {
            clients.remove(brokerId);
            if (client != null) {
                client.close();
            }
            LOG.info("Share state call to broker {} failed: {}", brokerId, e.getMessage());
            return null;
        }
    }

    @Override
    public void close() {
        ExecutorShutdown.now(thread, Duration.ofSeconds(5));
        clients.values().forEach(BlockingWireClient::close);
    }
}
