import { Template } from 'aws-cdk-lib/assertions';
import type { CambioStack } from '../../lib/cambio-stack.ts';

/**
 * The stage's alarms and CloudWatch dashboard, which lib/observability.ts makes in a nested stack of
 * their own, with every reference into the stage's template written back as the stage's template
 * writes it: a nested stack reads a function's name or a queue's through a parameter, which its
 * resource in the stage's template fills (`{ Ref: <the function> }`). So an alarm's dimension reads
 * as the function or queue it watches, as the assertions name them.
 */
export function alarmsTemplate(stack: CambioStack, stage: Template = Template.fromStack(stack)): Template {
  const nested = Template.fromStack(stack.operations.alarmsStack).toJSON();
  const [resource, ...others] = Object.values(stage.findResources('AWS::CloudFormation::Stack'));
  if (!resource || others.length > 0) throw new Error('the stage should hold one nested stack, its alarms');
  const filled = (resource.Properties.Parameters ?? {}) as Record<string, unknown>;
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') {
      const ref = (value as { Ref?: unknown }).Ref;
      if (typeof ref === 'string' && Object.keys(value).length === 1 && ref in filled) return filled[ref];
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
    }
    return value;
  };
  return Template.fromJSON(resolve(nested) as Record<string, unknown>);
}
