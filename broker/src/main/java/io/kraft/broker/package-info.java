/** Kafka wire server, request handlers, replica manager, coordinators. */
package io.kraft.broker;
