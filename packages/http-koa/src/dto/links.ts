/** Camunda's LinkableDto entry. */
export interface LinkDto {
  method: string;
  href: string;
  rel: string;
}

/** The `self` link of a created or fetched resource, absolute as Camunda builds it from the request. */
export function selfLink(baseUrl: string, path: string): LinkDto[] {
  return [{ method: 'GET', href: `${baseUrl}${path}`, rel: 'self' }];
}
