/**
 * Which product to recommend for a business focus (spec §3). Pure: any choice other than the three
 * known focuses (different spelling, empty, unknown) gives no recommendation.
 */
import {
  BUSINESS_FOCUSES,
  RECOMMENDATIONS,
  type BusinessFocus,
  type Recommendation,
} from '../content/catalog/recommendations.ts';

export function isBusinessFocus(choice: unknown): choice is BusinessFocus {
  return typeof choice === 'string' && (BUSINESS_FOCUSES as readonly string[]).includes(choice);
}

export function recommend(choice: unknown): Recommendation | null {
  return isBusinessFocus(choice) ? RECOMMENDATIONS[choice] : null;
}
