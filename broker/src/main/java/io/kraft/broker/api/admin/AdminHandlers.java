package io.kraft.broker.api.admin;

import io.kraft.broker.api.data.InitProducerIdHandler;
import io.kraft.broker.api.data.MetadataHandler;
import io.kraft.broker.api.data.TopicAutoCreator;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.producer.ProducerIdManager;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataSource;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The handlers of a broker's metadata and admin APIs (Metadata with auto-creation, CreateTopics,
 * CreatePartitions, ElectLeaders, AlterPartitionReassignments, ListPartitionReassignments, DescribeCluster, DescribeConfigs, AlterConfigs, IncrementalAlterConfigs, InitProducerId, DescribeAcls, CreateAcls, DeleteAcls,
 * DescribeClientQuotas, AlterClientQuotas),
 * wired to one controller, one metadata source and the broker's properties.
 */
public final class AdminHandlers {
    /** How long InitProducerId waits for the controller to allocate a block of producer ids. */
    static final long PRODUCER_ID_BLOCK_TIMEOUT_MS = 5_000;

    private AdminHandlers() {
    }

    /**
     * The handlers of the Admin APIs, plus Metadata and InitProducerId (which share their settings).
     *
     * @param properties  the node's properties file (static broker configs, auto.create.topics.enable)
     * @param brokerEpoch the broker's current registration epoch, -1 while unregistered
     * @throws io.kraft.config.ConfigException if a broker setting in the properties is invalid
     */
    public static List<ApiHandler> create(int brokerId, String clusterId, Controller controller, MetadataSource metadata,
                                      Map<String, String> properties, LongSupplier brokerEpoch) {
        EffectiveConfigs configs = new EffectiveConfigs(brokerId, properties);
        ProducerIdManager producerIds = new ProducerIdManager(brokerId, brokerEpoch, controller::allocateProducerIds,
                PRODUCER_ID_BLOCK_TIMEOUT_MS);
        TopicAutoCreator autoCreator = configs.autoCreateTopicsEnable()
                ? new TopicAutoCreator(controller, configs.defaultNumPartitions(), configs.defaultReplicationFactor())
                : null;
        return List.of(
                new MetadataHandler(metadata::image, clusterId, autoCreator),
                new CreateTopicsHandler(controller, metadata::image, configs),
                new CreatePartitionsHandler(controller),
                new ElectLeadersHandler(controller),
                new UnregisterBrokerHandler(controller),
                new AlterPartitionReassignmentsHandler(controller),
                new ListPartitionReassignmentsHandler(metadata::image),
                new DescribeClusterHandler(metadata::image, clusterId),
                new DescribeTopicPartitionsHandler(metadata::image),
                new DescribeConfigsHandler(metadata::image, configs),
                new AlterConfigsHandler(controller, metadata::image, configs),
                new IncrementalAlterConfigsHandler(controller, metadata::image, configs),
                new InitProducerIdHandler(producerIds, metadata::image, controller::initTransactionalProducer),
                new DescribeAclsHandler(metadata::image),
                new CreateAclsHandler(controller),
                new DeleteAclsHandler(controller),
                new DescribeClientQuotasHandler(metadata::image),
                new AlterClientQuotasHandler(controller),
                new UpdateFeaturesHandler(controller));
    }
}
