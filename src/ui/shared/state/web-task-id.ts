/** Web task ids without the catalog (which loads lazily, with the first web task). */

/** True for a web task id or a web "story" id (`web:<site>/<template>`). */
export const isWebTaskId = (id: string): boolean => id.startsWith('web:');
