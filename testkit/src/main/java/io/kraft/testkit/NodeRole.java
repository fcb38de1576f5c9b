package io.kraft.testkit;

/** What a node of a {@link KraftCluster} runs: Kafka's process.roles. */
public enum NodeRole {
    /** broker,controller: a voter of the metadata quorum that also serves Kafka clients. */
    COMBINED,
    /** broker only: serves Kafka clients, follows the metadata quorum. */
    BROKER,
    /** controller only: a voter of the metadata quorum, no Kafka listener. */
    CONTROLLER
}
