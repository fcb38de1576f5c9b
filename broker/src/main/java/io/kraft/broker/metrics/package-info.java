/**
 * A node's metrics: one store per node ({@code KafkaMetrics}) whose meters, timers and gauges are Prometheus client
 * families and JMX beans under Kafka's object names at once, and the broker's own metric sets (requests, topics).
 */
package io.kraft.broker.metrics;
