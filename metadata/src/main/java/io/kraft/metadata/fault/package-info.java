/**
 * Faults: errors that leave a node's metadata untrustworthy, handed to a {@link io.kraft.metadata.fault.FaultHandler}
 * that the node assembly supplies (stop the process) instead of being logged and swallowed.
 */
package io.kraft.metadata.fault;
