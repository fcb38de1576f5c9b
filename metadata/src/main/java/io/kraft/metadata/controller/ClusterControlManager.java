package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.BrokerRegistrationChangeRecord;
import io.kraft.proto.metadata.DirectoryIdList;
import io.kraft.proto.metadata.FenceBrokerRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.UnfenceBrokerRecord;
import io.kraft.proto.metadata.UnregisterBrokerRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Broker registrations and liveness. Request methods validate against the registrations in the
 * {@link SpeculativeMetadata} and only generate records. Besides them it keeps what the image does not: an index of
 * broker ids and the highest broker epoch, the log offset of each registration (from the entity changes the view
 * reports), and sessions (last heartbeat, connection-loss deadline), soft state of the active controller driven by
 * the times passed in.
 */
public final class ClusterControlManager implements BrokerLiveness {
    private final ControllerSettings settings;
    private final SpeculativeMetadata metadata;
    // Sorted so that fencing order and usable broker lists are deterministic.
    private final TreeSet<Integer> brokerIds = new TreeSet<>();
    // The log offset of each broker's registration record: it is caught up once it has applied it.
    private final Map<Integer, Long> registrationOffsets = new HashMap<>();
    private final Map<Integer, BrokerSession> sessions = new HashMap<>();
    private long highestBrokerEpoch = 0;

    ClusterControlManager(ControllerSettings settings, SpeculativeMetadata metadata) {
        this.settings = settings;
        this.metadata = metadata;
    }

    /**
     * Indexes the brokers of the committed image this controller starts from. Their registration offsets are not in
     * the image, so a broker counts as caught up once it reaches the image itself.
     */
    void index(MetadataImage image) {
        for (BrokerRegistration broker : image.cluster().brokers().values()) {
            brokerChanged(null, broker, image.offset());
        }
    }

    /** A registration entered the view (a new epoch is a new registration), changed, or left it ({@code after} null). */
    void brokerChanged(BrokerRegistration before, BrokerRegistration after, long offset) {
        if (after == null) {
            brokerIds.remove(before.id());
            registrationOffsets.remove(before.id());
            sessions.remove(before.id());
            return;
        }
        brokerIds.add(after.id());
        if (before == null || before.epoch() != after.epoch()) {
            registrationOffsets.put(after.id(), offset);
        }
        highestBrokerEpoch = Math.max(highestBrokerEpoch, after.epoch());
    }

    /**
     * Registers a broker incarnation. A new incarnation gets a broker epoch higher than any before and
     * starts fenced; the same incarnation retrying gets its existing epoch and no record.
     *
     * <p>A new incarnation replaces the registered one at once when that one is fenced or shutting down, its session
     * expired, its control-plane connection closed (the old process is gone: a restart after a crash), or this
     * controller has never heard from it (it took over after the old process stopped, e.g. a whole-cluster restart).
     * Only while the old incarnation is demonstrably alive (heard from, still connected, within its session) is the
     * new one refused with DUPLICATE_BROKER_REGISTRATION: two live processes claim the same id.
     */
    public ControllerResult<Long> registerBroker(BrokerRegistrationRequest request, long nowMs) {
        if (!settings.clusterId().equals(request.clusterId())) {
            return ControllerResult.failed(Errors.INCONSISTENT_CLUSTER_ID, "Broker " + request.brokerId()
                    + " belongs to cluster " + request.clusterId() + ", not " + settings.clusterId());
        }
        if (request.brokerId() < 0) {
            return ControllerResult.failed(Errors.INVALID_REQUEST, "Invalid broker id " + request.brokerId());
        }
        BrokerRegistration existing = metadata.broker(request.brokerId());
        if (existing != null && existing.incarnationId().equals(request.incarnationId())) {
            session(request.brokerId(), nowMs).touch(nowMs);
            return ControllerResult.of(List.of(), existing.epoch());
        }
        if (existing != null && !existing.fenced() && !existing.inControlledShutdown()
                && !sessionExpired(request.brokerId(), nowMs) && !session(request.brokerId(), nowMs).mayBeGone()) {
            return ControllerResult.failed(Errors.DUPLICATE_BROKER_REGISTRATION, "Broker " + request.brokerId()
                    + " is already registered with another incarnation that is still connected and heartbeating");
        }
        // Epochs must never repeat, also those of brokers unregistered since (a controller that took over knows only
        // the image's brokers). Every epoch handed out is at most its record's offset + 1, so one above the view's
        // last offset + 1 is higher than any epoch ever written before it.
        long brokerEpoch = Math.max(highestBrokerEpoch + 1, metadata.lastOffset() + 2);
        RegisterBrokerRecord.Builder record = RegisterBrokerRecord.newBuilder()
                .setBrokerId(request.brokerId())
                .setIncarnationId(Uuids.toProto(request.incarnationId()))
                .setBrokerEpoch(brokerEpoch)
                .setFenced(true)
                .setInControlledShutdown(false);
        request.listeners().forEach(endpoint -> record.addListeners(endpoint.toProto()));
        request.rack().ifPresent(record::setRack);
        request.logDirs().forEach(dir -> record.addLogDirs(Uuids.toProto(dir)));
        BrokerSession session = new BrokerSession(nowMs);
        session.touch(nowMs);
        sessions.put(request.brokerId(), session);
        return ControllerResult.of(List.of(MetadataRecords.of(record.build())), brokerEpoch);
    }

    /**
     * Handles a heartbeat: refreshes the session and decides whether the broker is unfenced (caught up to
     * its registration), fenced (it asks to be), or advances its controlled shutdown. Moving partition
     * leaderships away is the replication manager's part; {@code leadsPartitions} tells whether that is done.
     */
    public ControllerResult<BrokerHeartbeatReply> heartbeat(BrokerHeartbeatRequest request, long nowMs,
                                                             boolean leadsPartitions) {
        BrokerRegistration broker = metadata.broker(request.brokerId());
        if (broker == null) {
            return ControllerResult.failed(Errors.BROKER_ID_NOT_REGISTERED,
                    "Broker " + request.brokerId() + " is not registered");
        }
        if (broker.epoch() != request.brokerEpoch()) {
            return ControllerResult.failed(Errors.STALE_BROKER_EPOCH, "Broker " + request.brokerId()
                    + " sent epoch " + request.brokerEpoch() + " but its registration has epoch " + broker.epoch());
        }
        session(request.brokerId(), nowMs).touch(nowMs);
        boolean caughtUp = request.currentMetadataOffset() >= registrationOffsets.getOrDefault(broker.id(), 0L);
        List<MetadataRecord> records = new ArrayList<>();
        boolean fenced = broker.fenced();
        boolean shouldShutDown = false;
        if (request.wantShutDown()) {
            if (fenced) {
                shouldShutDown = true;
            } else if (!broker.inControlledShutdown()) {
                records.add(MetadataRecords.of(BrokerRegistrationChangeRecord.newBuilder()
                        .setBrokerId(broker.id()).setBrokerEpoch(broker.epoch()).setInControlledShutdown(true).build()));
            } else if (!leadsPartitions) {
                records.add(fenceRecord(broker));
                fenced = true;
                shouldShutDown = true;
            }
        } else if (fenced && caughtUp && !request.wantFence() && !broker.inControlledShutdown()) {
            records.add(MetadataRecords.of(UnfenceBrokerRecord.newBuilder()
                    .setBrokerId(broker.id()).setBrokerEpoch(broker.epoch()).build()));
            fenced = false;
        } else if (!fenced && request.wantFence()) {
            records.add(fenceRecord(broker));
            fenced = true;
        }
        return ControllerResult.of(records, new BrokerHeartbeatReply(caughtUp, fenced, shouldShutDown));
    }

    /**
     * Starts every session afresh for a controller starting its term at {@code nowMs}: each unfenced broker must be
     * heard from within {@link ControllerSettings#takeoverGraceMs()}. A live broker reconnects to the new leader
     * within a heartbeat or two; one that died with the previous controller never does, and waiting a whole
     * session timeout for it would keep its partitions leaderless that long.
     */
    void resetSessions(long nowMs) {
        sessions.clear();
        for (BrokerRegistration broker : brokers()) {
            if (!broker.fenced()) {
                BrokerSession session = new BrokerSession(nowMs);
                session.connectionClosed(nowMs, settings.takeoverGraceMs());
                sessions.put(broker.id(), session);
            }
        }
    }

    /**
     * The record taking the broker's failed log directories out of its online ones (KIP-858), or empty if none of them
     * is still listed. Call for a broker whose heartbeat was accepted.
     */
    public Optional<MetadataRecord> logDirsOffline(int brokerId, Set<UUID> failed) {
        BrokerRegistration broker = metadata.broker(brokerId);
        if (broker == null || broker.logDirs().stream().noneMatch(failed::contains)) {
            return Optional.empty();
        }
        DirectoryIdList.Builder online = DirectoryIdList.newBuilder();
        broker.logDirs().stream().filter(dir -> !failed.contains(dir)).forEach(dir -> online.addDirectoryIds(
                Uuids.toProto(dir)));
        return Optional.of(MetadataRecords.of(BrokerRegistrationChangeRecord.newBuilder()
                .setBrokerId(brokerId).setBrokerEpoch(broker.epoch()).setLogDirs(online).build()));
    }

    /**
     * UnregisterBroker: the record removing a decommissioned broker's registration, or BROKER_ID_NOT_REGISTERED. As in
     * Kafka a live broker is not refused; it registers again (with a new epoch) once its heartbeats are refused.
     */
    public ControllerResult<Void> unregisterBroker(int brokerId) {
        BrokerRegistration broker = metadata.broker(brokerId);
        if (broker == null) {
            return ControllerResult.failed(Errors.BROKER_ID_NOT_REGISTERED, "Broker " + brokerId + " is not registered");
        }
        return ControllerResult.of(List.of(MetadataRecords.of(UnregisterBrokerRecord.newBuilder()
                .setBrokerId(brokerId).setBrokerEpoch(broker.epoch()).build())), null);
    }

    /** The broker's control-plane connection closed: fence it unless it is heard from within the grace time. */
    public void connectionClosed(int brokerId, long nowMs) {
        if (isRegistered(brokerId)) {
            session(brokerId, nowMs).connectionClosed(nowMs, settings.connectionLossGraceMs());
        }
    }

    /**
     * Every connection to the broker's advertised endpoints was refused: fence it without waiting for the
     * connection-loss or takeover grace, unless it was heard from since (see {@link BrokerSession#refused}).
     *
     * @return whether the broker is now due to be fenced
     */
    public boolean connectionRefused(int brokerId, long nowMs) {
        BrokerRegistration broker = metadata.broker(brokerId);
        return broker != null && !broker.fenced() && session(brokerId, nowMs).refused(nowMs);
    }

    /** Fence records for every unfenced broker whose session expired or whose connection-loss grace ran out. */
    public ControllerResult<List<Integer>> fenceStaleBrokers(long nowMs) {
        List<MetadataRecord> records = new ArrayList<>();
        List<Integer> fenced = new ArrayList<>();
        for (BrokerRegistration broker : brokers()) {
            if (!broker.fenced() && sessionExpired(broker.id(), nowMs)) {
                records.add(fenceRecord(broker));
                fenced.add(broker.id());
            }
        }
        return ControllerResult.of(records, fenced);
    }

    /** The earliest time at which an unfenced broker is due to be fenced, or Long.MAX_VALUE if none. */
    public long nextFencingDeadlineMs(long nowMs) {
        long deadline = Long.MAX_VALUE;
        for (BrokerRegistration broker : brokers()) {
            if (!broker.fenced()) {
                deadline = Math.min(deadline, session(broker.id(), nowMs).fencingDeadlineMs(settings.sessionTimeoutMs()));
            }
        }
        return deadline;
    }

    private boolean sessionExpired(int brokerId, long nowMs) {
        return session(brokerId, nowMs).expired(nowMs, settings.sessionTimeoutMs());
    }

    // A broker registered before this controller took over gets a full session from the first time we look.
    private BrokerSession session(int brokerId, long nowMs) {
        return sessions.computeIfAbsent(brokerId, id -> new BrokerSession(nowMs));
    }

    private static MetadataRecord fenceRecord(BrokerRegistration broker) {
        return MetadataRecords.of(FenceBrokerRecord.newBuilder()
                .setBrokerId(broker.id()).setBrokerEpoch(broker.epoch()).build());
    }

    /** The indexes, so that tests can compare indexes kept up change by change with indexes built from an image. */
    Map<String, Object> indexes() {
        return Map.of("brokerIds", List.copyOf(brokerIds), "highestBrokerEpoch", highestBrokerEpoch);
    }

    /** Every registration, by ascending broker id. */
    private List<BrokerRegistration> brokers() {
        List<BrokerRegistration> registrations = new ArrayList<>(brokerIds.size());
        for (int brokerId : brokerIds) {
            registrations.add(metadata.broker(brokerId));
        }
        return registrations;
    }

    /** The registration, or null. */
    public BrokerRegistration registration(int brokerId) {
        return metadata.broker(brokerId);
    }

    @Override
    public boolean isRegistered(int brokerId) {
        return metadata.broker(brokerId) != null;
    }

    @Override
    public boolean isUsable(int brokerId) {
        BrokerRegistration broker = metadata.broker(brokerId);
        return broker != null && !broker.fenced() && !broker.inControlledShutdown();
    }

    @Override
    public long brokerEpoch(int brokerId) {
        BrokerRegistration broker = metadata.broker(brokerId);
        return broker == null ? -1 : broker.epoch();
    }

    @Override
    public boolean isLogDirOnline(int brokerId, UUID directoryId) {
        BrokerRegistration broker = metadata.broker(brokerId);
        return broker != null && broker.logDirs().contains(directoryId);
    }

    @Override
    public List<UsableBroker> usableBrokers() {
        List<UsableBroker> usable = new ArrayList<>();
        for (BrokerRegistration broker : brokers()) {
            if (!broker.fenced() && !broker.inControlledShutdown()) {
                usable.add(new UsableBroker(broker.id(), broker.rack()));
            }
        }
        return usable;
    }
}
