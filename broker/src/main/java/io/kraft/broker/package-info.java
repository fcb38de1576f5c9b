/**
 * The broker role: {@link io.kraft.broker.BrokerServer} assembles the Kafka wire server ({@code network},
 * {@code protocol}), the API handlers ({@code api}, {@code fetch}), the replica manager ({@code replica}), the group
 * coordinator ({@code group}), producer ids ({@code producer}), effective configuration ({@code config}) and the
 * broker's registration with the controller ({@code lifecycle}).
 */
package io.kraft.broker;
