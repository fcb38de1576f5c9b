/** Request handlers: one per Kafka API, each turning a parsed request into its response body. */
package io.kraft.broker.handler;
