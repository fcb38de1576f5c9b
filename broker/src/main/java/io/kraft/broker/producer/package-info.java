/**
 * Producer ids for idempotent producers: {@link io.kraft.broker.producer.ProducerIdManager} hands them out
 * from blocks the controller records in the metadata log.
 */
package io.kraft.broker.producer;
