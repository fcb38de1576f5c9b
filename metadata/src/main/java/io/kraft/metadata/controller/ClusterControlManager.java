package io.kraft.metadata.controller;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.ClusterImage;
import io.kraft.proto.metadata.BrokerRegistrationChangeRecord;
import io.kraft.proto.metadata.FenceBrokerRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.UnfenceBrokerRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Broker registrations and liveness. Request methods validate against the current state and only
 * generate records; {@link #replay} applies records. Sessions (last heartbeat, connection-loss deadline)
 * are soft state of the active controller, driven by the times passed in.
 */
public final class ClusterControlManager implements BrokerLiveness {
    private final ControllerSettings settings;
    // Sorted so that fencing order and usable broker lists are deterministic.
    private final TreeMap<Integer, BrokerRegistration> brokers = new TreeMap<>();
    // The log offset of each broker's registration record: it is caught up once it has applied it.
    private final Map<Integer, Long> registrationOffsets = new HashMap<>();
    private final Map<Integer, BrokerSession> sessions = new HashMap<>();
    private long highestBrokerEpoch = 0;

    public ClusterControlManager(ControllerSettings settings) {
        this.settings = settings;
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
        BrokerRegistration existing = brokers.get(request.brokerId());
        if (existing != null && existing.incarnationId().equals(request.incarnationId())) {
            session(request.brokerId(), nowMs).touch(nowMs);
            return ControllerResult.of(List.of(), existing.epoch());
        }
        if (existing != null && !existing.fenced() && !existing.inControlledShutdown()
                && !sessionExpired(request.brokerId(), nowMs) && !session(request.brokerId(), nowMs).mayBeGone()) {
            return ControllerResult.failed(Errors.DUPLICATE_BROKER_REGISTRATION, "Broker " + request.brokerId()
                    + " is already registered with another incarnation that is still connected and heartbeating");
        }
        long brokerEpoch = highestBrokerEpoch + 1;
        RegisterBrokerRecord.Builder record = RegisterBrokerRecord.newBuilder()
                .setBrokerId(request.brokerId())
                .setIncarnationId(Uuids.toProto(request.incarnationId()))
                .setBrokerEpoch(brokerEpoch)
                .setFenced(true)
                .setInControlledShutdown(false);
        request.listeners().forEach(endpoint -> record.addListeners(endpoint.toProto()));
        request.rack().ifPresent(record::setRack);
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
        BrokerRegistration broker = brokers.get(request.brokerId());
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

    /** The broker's control-plane connection closed: fence it unless it is heard from within the grace time. */
    public void connectionClosed(int brokerId, long nowMs) {
        if (brokers.containsKey(brokerId)) {
            session(brokerId, nowMs).connectionClosed(nowMs, settings.connectionLossGraceMs());
        }
    }

    /** Fence records for every unfenced broker whose session expired or whose connection-loss grace ran out. */
    public ControllerResult<List<Integer>> fenceStaleBrokers(long nowMs) {
        List<MetadataRecord> records = new ArrayList<>();
        List<Integer> fenced = new ArrayList<>();
        for (BrokerRegistration broker : brokers.values()) {
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
        for (BrokerRegistration broker : brokers.values()) {
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

    /** Applies a register, registration change, fence or unfence record found at the given offset. */
    public void replay(MetadataRecord record, long offset) {
        switch (record.getRecordCase()) {
            case REGISTER_BROKER -> {
                BrokerRegistration registration = BrokerRegistration.fromRecord(record.getRegisterBroker());
                brokers.put(registration.id(), registration);
                registrationOffsets.put(registration.id(), offset);
                highestBrokerEpoch = Math.max(highestBrokerEpoch, registration.epoch());
            }
            case BROKER_REGISTRATION_CHANGE -> {
                BrokerRegistrationChangeRecord change = record.getBrokerRegistrationChange();
                BrokerRegistration broker = current(change.getBrokerId(), change.getBrokerEpoch());
                if (change.hasFenced()) {
                    broker = broker.withFenced(change.getFenced());
                }
                if (change.hasInControlledShutdown()) {
                    broker = broker.withInControlledShutdown(change.getInControlledShutdown());
                }
                brokers.put(broker.id(), broker);
            }
            case FENCE_BROKER -> {
                FenceBrokerRecord fence = record.getFenceBroker();
                brokers.put(fence.getBrokerId(), current(fence.getBrokerId(), fence.getBrokerEpoch()).withFenced(true));
            }
            case UNFENCE_BROKER -> {
                UnfenceBrokerRecord unfence = record.getUnfenceBroker();
                brokers.put(unfence.getBrokerId(), current(unfence.getBrokerId(), unfence.getBrokerEpoch())
                        .withFenced(false).withInControlledShutdown(false));
            }
            default -> throw new IllegalArgumentException("Not a cluster record: " + record.getRecordCase());
        }
    }

    private BrokerRegistration current(int brokerId, long brokerEpoch) {
        BrokerRegistration broker = brokers.get(brokerId);
        if (broker == null || broker.epoch() != brokerEpoch) {
            throw new InvalidMetadataRecordException("Record for broker " + brokerId + " epoch " + brokerEpoch
                    + " does not match its registration " + broker);
        }
        return broker;
    }

    /** The registration, or null. */
    public BrokerRegistration registration(int brokerId) {
        return brokers.get(brokerId);
    }

    /** The registrations as an image (for comparison and inspection). */
    public ClusterImage image() {
        return new ClusterImage(brokers);
    }

    @Override
    public boolean isRegistered(int brokerId) {
        return brokers.containsKey(brokerId);
    }

    @Override
    public boolean isUsable(int brokerId) {
        BrokerRegistration broker = brokers.get(brokerId);
        return broker != null && !broker.fenced() && !broker.inControlledShutdown();
    }

    @Override
    public long brokerEpoch(int brokerId) {
        BrokerRegistration broker = brokers.get(brokerId);
        return broker == null ? -1 : broker.epoch();
    }

    @Override
    public List<UsableBroker> usableBrokers() {
        List<UsableBroker> usable = new ArrayList<>();
        for (BrokerRegistration broker : brokers.values()) {
            if (!broker.fenced() && !broker.inControlledShutdown()) {
                usable.add(new UsableBroker(broker.id(), broker.rack()));
            }
        }
        return usable;
    }
}
