package io.kraft.broker.fetch.follower;

import io.kraft.broker.quota.QuotaWindows;
import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.storage.log.TopicPartition;
import io.kraft.broker.network.InterBrokerSecurity;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's follower fetchers: {@code num.replica.fetchers} threads per source broker, a partition always on
 * the same one (by hash). Partitions are added when this broker becomes their follower and removed when it
 * stops following them; a thread with nothing left to fetch ends. Threads start only after {@link #start()},
 * so partitions assigned while the metadata log is replayed wait until the broker runs.
 */
public final class ReplicaFetcherManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcherManager.class);

    private final int localBrokerId;
    private final ReplicationConfig config;
    private final IntFunction<Optional<InetSocketAddress>> endpoints;
    private final LongSupplier brokerEpoch;
    private final LongSupplier clockMs;
    private final InterBrokerSecurity security;
    private final Map<FetcherId, ReplicaFetcherThread> fetchers = new HashMap<>();
    private final FollowerFetchStats stats = new FollowerFetchStats();
    private final ReplicationQuota followerQuota;
    /** Which fetcher each followed partition is on. */
    private final Map<TopicPartition, FetcherId> assignments = new HashMap<>();
    private boolean started;
    private boolean closed;

    /**
     * @param endpoints   the address to fetch from for a broker id (from the current metadata), if known
     * @param brokerEpoch this broker's registration epoch (sent with each fetch), -1 before registering
     */
    public ReplicaFetcherManager(int localBrokerId, ReplicationConfig config,
                                 IntFunction<Optional<InetSocketAddress>> endpoints, LongSupplier brokerEpoch,
                                 LongSupplier clockMs) {
        this(localBrokerId, config, endpoints, InterBrokerSecurity.PLAINTEXT, brokerEpoch, clockMs);
    }

    /** @param security how to reach leaders: TLS and a SASL login as the inter-broker listener needs */
    public ReplicaFetcherManager(int localBrokerId, ReplicationConfig config,
                                 IntFunction<Optional<InetSocketAddress>> endpoints,
                                 InterBrokerSecurity security, LongSupplier brokerEpoch,
                                 LongSupplier clockMs) {
        this(localBrokerId, config, endpoints, security, brokerEpoch, clockMs,
                new ReplicationQuota(QuotaWindows.DEFAULT, clockMs));
    }

    /** @param followerQuota the follower's replication throttle (KIP-73) */
    public ReplicaFetcherManager(int localBrokerId, ReplicationConfig config,
                                 IntFunction<Optional<InetSocketAddress>> endpoints,
                                 InterBrokerSecurity security, LongSupplier brokerEpoch,
                                 LongSupplier clockMs, ReplicationQuota followerQuota) {
        this.followerQuota = followerQuota;
        this.security = security;
        this.localBrokerId = localBrokerId;
        this.config = config;
        this.endpoints = endpoints;
        this.brokerEpoch = brokerEpoch;
        this.clockMs = clockMs;
    }

    private record FetcherId(int sourceBrokerId, int index) {
    }

    /** Starts the fetcher threads of the partitions added so far, and any later ones at once. */
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        fetchers.values().forEach(Thread::start);
    }

    /** Which of a source broker's {@code num.replica.fetchers} threads fetches {@code tp} (Kafka's fetcher id). */
    public static int fetcherIndex(TopicPartition tp, int numReplicaFetchers) {
        return Math.floorMod(tp.hashCode(), numReplicaFetchers);
    }

    /** Fetches {@code partition} from {@code leaderId} in {@code leaderEpoch}, moving it off any other fetcher. */
    public synchronized void addPartition(Partition partition, int leaderId, int leaderEpoch) {
        if (closed) {
            return;
        }
        TopicPartition tp = partition.topicPartition();
        removePartitions(Set.of(tp));
        FetcherId id = new FetcherId(leaderId, fetcherIndex(tp, config.numReplicaFetchers()));
        ReplicaFetcherThread fetcher = fetchers.computeIfAbsent(id, key -> {
            ReplicaFetcherThread created = new ReplicaFetcherThread("kraft-replica-fetcher-" + localBrokerId
                    + "-from-" + key.sourceBrokerId() + "-" + key.index(), key.sourceBrokerId(), localBrokerId, config,
                    endpoints, security, brokerEpoch, clockMs, stats, followerQuota);
            if (started) {
                created.start();
            }
            return created;
        });
        fetcher.addPartition(partition, leaderEpoch);
        assignments.put(tp, id);
    }

    /** Stops fetching the partitions; returns once no fetcher writes their logs any more. */
    public synchronized void removePartitions(Set<TopicPartition> removed) {
        List<FetcherId> touched = new ArrayList<>();
        for (TopicPartition tp : removed) {
            FetcherId id = assignments.remove(tp);
            if (id != null) {
                fetchers.get(id).removePartitions(List.of(tp));
                touched.add(id);
            }
        }
        for (FetcherId id : touched) {
            ReplicaFetcherThread fetcher = fetchers.get(id);
            if (fetcher != null && fetcher.partitionCount() == 0) {
                fetchers.remove(id);
                if (fetcher.isAlive()) {
                    fetcher.shutdown();
                }
            }
        }
    }

    /** The broker a partition is fetched from, if this broker follows it. */
    public synchronized Optional<Integer> sourceBroker(TopicPartition tp) {
        return Optional.ofNullable(assignments.get(tp)).map(FetcherId::sourceBrokerId);
    }

    /** What the fetcher threads have sent so far (every thread, current and ended). */
    public FollowerFetchStats stats() {
        return stats;
    }

    public synchronized int fetcherCount() {
        return fetchers.size();
    }

    /** Stops every fetcher thread (their partitions stay as they are on disk). */
    @Override
    public void close() {
        List<ReplicaFetcherThread> stopping;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            stopping = new ArrayList<>(fetchers.values());
            fetchers.clear();
            assignments.clear();
        }
        for (ReplicaFetcherThread fetcher : stopping) {
            if (fetcher.isAlive()) {
                fetcher.shutdown();
            }
        }
        LOG.info("Broker {} stopped its {} replica fetchers", localBrokerId, stopping.size());
    }
}
