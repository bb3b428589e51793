/**
 * Every table of functions/manifest/resources.ts, created from its definition alone, so the
 * stack and the local stack hold the same keys and indexes.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tables as definitions, type IndexDefinition, type KeyDefinition, type TableDefinition, type TableName } from '../../../functions/manifest/resources';

const attributeTypes: Record<KeyDefinition['type'], AttributeType> = {
  S: AttributeType.STRING,
  N: AttributeType.NUMBER,
  B: AttributeType.BINARY,
};

const projectionTypes: Record<NonNullable<IndexDefinition['projection']>, ProjectionType> = {
  ALL: ProjectionType.ALL,
  KEYS_ONLY: ProjectionType.KEYS_ONLY,
};

const attribute = (key: KeyDefinition): Attribute => ({ name: key.name, type: attributeTypes[key.type] });

export class DataTables extends Construct {
  readonly tables: Record<TableName, Table>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const entries = Object.entries(definitions) as [TableName, TableDefinition][];
    this.tables = Object.fromEntries(entries.map(([name, definition]) => [name, this.createTable(definition)])) as Record<TableName, Table>;
  }

  private createTable(definition: TableDefinition): Table {
    const table = new Table(this, definition.id, {
      partitionKey: attribute(definition.partitionKey),
      sortKey: definition.sortKey && attribute(definition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: definition.timeToLiveAttribute,
      // Customer data outlives the stack: deleting the stack must not delete it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of definition.indexes ?? []) {
      if (index.kind === 'global') {
        if (!index.partitionKey) throw new Error(`Global index ${index.name} of ${definition.id} needs a partition key`);
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: attribute(index.partitionKey),
          sortKey: attribute(index.sortKey),
          projectionType: projectionTypes[index.projection ?? 'ALL'],
        });
      } else {
        table.addLocalSecondaryIndex({ indexName: index.name, sortKey: attribute(index.sortKey), projectionType: projectionTypes[index.projection ?? 'ALL'] });
      }
    }
    return table;
  }
}
