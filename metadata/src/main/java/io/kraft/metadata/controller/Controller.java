package io.kraft.metadata.controller;

import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * What a broker asks of the active controller, whether it runs in the same process (the
 * {@link QuorumController}) or is reached over the gRPC control plane. Every answer completes when the
 * change has committed, or fails with a {@link ControllerException} carrying the Kafka error.
 */
public interface Controller {

    /** Registers a broker incarnation; answers its new broker epoch. */
    CompletableFuture<Long> registerBroker(BrokerRegistrationRequest request);

    CompletableFuture<BrokerHeartbeatReply> heartbeat(BrokerHeartbeatRequest request);

    /** UnregisterBroker: removes a decommissioned broker's registration (BROKER_ID_NOT_REGISTERED if it has none). */
    CompletableFuture<Void> unregisterBroker(int brokerId);

    /** Creates one topic; answers its id and partitions. */
    CompletableFuture<CreateTopicResult> createTopic(CreateTopicRequest request);

    /** Creates each topic independently, in order; one failing does not stop the others. */
    default List<CompletableFuture<CreateTopicResult>> createTopics(List<CreateTopicRequest> requests) {
        return requests.stream().map(this::createTopic).toList();
    }

    /**
     * Runs the same validation and replica placement as {@link #createTopic} against the current state and
     * answers what it would create, appending nothing (CreateTopics with validate_only).
     */
    CompletableFuture<CreateTopicResult> validateCreateTopic(CreateTopicRequest request);

    /** Deletes one topic; answers its id. */
    CompletableFuture<UUID> deleteTopic(String topicName);

    default List<CompletableFuture<UUID>> deleteTopics(List<String> topicNames) {
        return topicNames.stream().map(this::deleteTopic).toList();
    }

    /** Grows a topic to {@code totalCount} partitions, with explicit replicas for the new ones or none. */
    CompletableFuture<Void> createPartitions(String topicName, int totalCount, List<List<Integer>> newAssignments);

    /** Checks a {@link #createPartitions} call as the real one would, appending nothing (validate_only). */
    CompletableFuture<Void> validateCreatePartitions(String topicName, int totalCount, List<List<Integer>> newAssignments);

    /** A partition leader's ISR change, checked against the leader and partition epochs. */
    CompletableFuture<PartitionRegistration> alterPartition(AlterPartitionRequest request);

    /** AssignReplicasToDirs (KIP-858): records where the broker's replicas live; per partition NONE or an error. */
    CompletableFuture<Map<TopicIdPartition, Errors>> assignReplicasToDirs(AssignReplicasToDirsRequest request);

    /**
     * ElectLeaders: a preferred or unclean election in each named partition (topic name to partition ids), or in
     * every partition that needs one when {@code partitions} is empty; answers each partition's outcome by topic
     * name (ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE, ELIGIBLE_LEADERS_NOT_AVAILABLE, ...).
     */
    CompletableFuture<Map<String, Map<Integer, ApiError>>> electLeaders(ElectionType type,
                                                                        Optional<Map<String, Set<Integer>>> partitions);

    /**
     * AlterPartitionReassignments: the target replicas of each named partition (topic name to partition id), or
     * empty to cancel its reassignment; answers each partition's outcome once the change has committed.
     */
    CompletableFuture<Map<String, Map<Integer, ApiError>>> alterPartitionReassignments(
            Map<String, Map<Integer, Optional<List<Integer>>>> targets, boolean allowReplicationFactorChange);

    /** Sets (present value) or deletes (empty) config keys of one resource. */
    CompletableFuture<Void> incrementalAlterConfigs(ConfigResource resource, Map<String, Optional<String>> changes);

    CompletableFuture<ProducerIdBlock> allocateProducerIds(int brokerId, long brokerEpoch);

    /** CreateAcls: one result per ACL, in order, once the new ones have committed. */
    CompletableFuture<List<ApiError>> createAcls(List<StandardAcl> acls);

    /** DeleteAcls: per filter, in order, the ACLs it deleted, once the deletions have committed. */
    CompletableFuture<List<AclDeleteResult>> deleteAcls(List<AclFilter> filters);

    /**
     * AlterUserScramCredentials (KIP-554): answers each user named, in the order first named, with its outcome
     * (UNACCEPTABLE_CREDENTIAL, RESOURCE_NOT_FOUND, DUPLICATE_RESOURCE, UNSUPPORTED_SASL_MECHANISM or NONE) once the
     * successful users' credentials have committed.
     */
    CompletableFuture<Map<String, ApiError>> alterUserScramCredentials(List<ScramAlteration> alterations);

    /** AlterClientQuotas: one result per entry, in order, once the changes have committed (none if validateOnly). */
    CompletableFuture<List<ApiError>> alterClientQuotas(List<io.kraft.metadata.quota.ClientQuotaAlteration> entries,
                                                        boolean validateOnly);

    /**
     * UpdateFeatures: each feature's result, once the new levels have committed (all or, when one is refused,
     * none; none either if validateOnly).
     */
    CompletableFuture<Map<String, ApiError>> updateFeatures(Map<String, FeatureControlManager.FeatureUpdate> updates,
                                                            boolean validateOnly);

    // ---- transactions (the transaction coordinator runs in the active controller) -------------------------------

    /** InitProducerId with a transactional id (see {@link TransactionControlManager#initProducerId}). */
    CompletableFuture<TransactionalProducer> initTransactionalProducer(String transactionalId, int timeoutMs,
                                                                      long producerId, short producerEpoch);

    /**
     * AddPartitionsToTxn: answers, per topic name and partition, its error (all NONE when added).
     *
     * @param transactionVersion 2 when a partition leader adds them on a Produce (KIP-890 part 2), else 1
     */
    CompletableFuture<Map<String, Map<Integer, Errors>>> addPartitionsToTransaction(
            String transactionalId, long producerId, short producerEpoch, Map<String, List<Integer>> partitions,
            int transactionVersion);

    /**
     * AddOffsetsToTxn: the group's offsets partition joins the transaction.
     *
     * @param transactionVersion 2 when TxnOffsetCommit adds the group itself (KIP-890 part 2), else 1
     */
    CompletableFuture<Void> addOffsetsToTransaction(String transactionalId, long producerId, short producerEpoch,
                                                    String groupId, String offsetsTopic, int offsetsPartition,
                                                    int transactionVersion);

    /**
     * EndTxn: answers, once PrepareCommit/PrepareAbort has committed, the producer id and epoch the producer goes on
     * with (see {@link TransactionControlManager#endTransaction}).
     */
    CompletableFuture<TransactionalProducer> endTransaction(String transactionalId, long producerId,
                                                            short producerEpoch, boolean commit, boolean bumpEpoch);

    /** A partition leader wrote a transaction's markers into some partitions. */
    CompletableFuture<Void> transactionMarkersWritten(TransactionMarkersWritten report);
}
