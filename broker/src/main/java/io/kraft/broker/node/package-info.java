/**
 * Node wiring: assembles the Raft metadata log, the quorum controller and the Kafka wire server into a
 * running node, and keeps its broker registered with the controller.
 */
package io.kraft.broker.node;
