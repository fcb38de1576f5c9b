/**
 * Handlers of the Admin client's APIs: CreateTopics, DeleteTopics, CreatePartitions, DescribeConfigs, AlterConfigs,
 * IncrementalAlterConfigs and DescribeCluster. Changes go to the active controller and are answered once committed;
 * those handlers are asynchronous, so no request-handler thread waits for the controller
 * ({@link io.kraft.broker.api.admin.ControllerErrors} bounds the wait and turns a controller failure into the
 * response's error). Descriptions answer from the broker's committed metadata and its effective configuration
 * ({@link io.kraft.broker.config}).
 */
package io.kraft.broker.api.admin;
