package io.kraft.metadata.image;

import io.kraft.proto.metadata.MetadataRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** The whole cluster metadata as of one log position; immutable, shared freely between threads. */
public record MetadataImage(MetadataProvenance provenance, ClusterImage cluster, TopicsImage topics,
                            ConfigurationsImage configs, ProducerIdsImage producerIds, FeaturesImage features,
                            TransactionsImage transactions, AclsImage acls, ScramImage scram,
                            ClientQuotasImage clientQuotas) {
    public static final MetadataImage EMPTY = new MetadataImage(MetadataProvenance.EMPTY, ClusterImage.EMPTY,
            TopicsImage.EMPTY, ConfigurationsImage.EMPTY, ProducerIdsImage.EMPTY, FeaturesImage.EMPTY,
            TransactionsImage.EMPTY, AclsImage.EMPTY, ScramImage.EMPTY, ClientQuotasImage.EMPTY);

    public MetadataImage {
        Objects.requireNonNull(provenance, "provenance");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(configs, "configs");
        Objects.requireNonNull(producerIds, "producerIds");
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(transactions, "transactions");
        Objects.requireNonNull(acls, "acls");
        Objects.requireNonNull(scram, "scram");
        Objects.requireNonNull(clientQuotas, "clientQuotas");
    }

    public long offset() {
        return provenance.offset();
    }

    public int epoch() {
        return provenance.epoch();
    }

    /**
     * Records that rebuild this image when replayed onto {@link #EMPTY} (the snapshot form), in a stable
     * order: features, brokers, topics with their partitions, configs, producer ids, transactions, ACLs, SCRAM
     * credentials, client quotas.
     */
    public List<MetadataRecord> toRecords() {
        List<MetadataRecord> records = new ArrayList<>(features.toRecords());
        cluster.brokers().values().stream()
                .sorted(Comparator.comparingInt(BrokerRegistration::id))
                .forEach(broker -> records.add(broker.toRecord()));
        topics.topicsByName().values().stream()
                .sorted(Comparator.comparing(TopicImage::name))
                .forEach(topic -> records.addAll(topic.toRecords()));
        records.addAll(configs.toRecords());
        records.addAll(producerIds.toRecords());
        records.addAll(transactions.toRecords());
        records.addAll(acls.toRecords());
        records.addAll(scram.toRecords());
        records.addAll(clientQuotas.toRecords());
        return records;
    }
}
