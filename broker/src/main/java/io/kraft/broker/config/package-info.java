/**
 * The broker's effective configuration: static properties, dynamic broker configs and topic overrides from the
 * metadata log layered as Kafka layers them ({@link io.kraft.broker.config.EffectiveConfigs}), and their
 * description with sources and synonyms for DescribeConfigs ({@link io.kraft.broker.config.ConfigDescriber}).
 */
package io.kraft.broker.config;
