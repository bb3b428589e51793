/** aws-sdk-client-mock's jest matchers (toHaveReceivedCommandWith, …) for the unit tests. */
import 'aws-sdk-client-mock-jest';
